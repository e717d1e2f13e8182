/**
 * {@code tessera ca} and {@code tessera credentials}: the cluster CA, and the credentials of users
 * and servers it issues, lists and revokes.
 */
package io.tessera.cli.credentials;
