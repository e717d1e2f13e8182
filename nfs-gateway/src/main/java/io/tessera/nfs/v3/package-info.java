/**
 * NFS version 3: the 22 procedures, file handles, attributes, permission checks from AUTH_UNIX, and
 * the open files where UNSTABLE writes are gathered until COMMIT.
 */
package io.tessera.nfs.v3;
