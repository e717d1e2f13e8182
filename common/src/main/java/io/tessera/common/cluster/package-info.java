/**
 * What every process knows of the cluster as a whole: the cluster.json file, which meta requests a
 * follower may answer, and the identity recovery's calls carry.
 */
package io.tessera.common.cluster;
