/** {@code tessera cluster}: the cluster's state as the meta group reports it. */
package io.tessera.cli.cluster;
