/**
 * The NFS gateway: NFSv3 and MOUNT v3 (RFC 1813) over ONC RPC (RFC 5531), serving the namespace
 * through the Tessera client library. Its settings are in {@link io.tessera.nfs.NfsConfigKeys}.
 */
package io.tessera.nfs;
