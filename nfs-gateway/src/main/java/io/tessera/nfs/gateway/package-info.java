/** The gateway process: the client, the RPC server and its two programs wired together. */
package io.tessera.nfs.gateway;
