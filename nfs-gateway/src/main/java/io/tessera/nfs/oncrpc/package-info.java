/**
 * ONC RPC over TCP on Netty: record marking with bounded records, XDR with every length checked,
 * call headers, AUTH_UNIX, accepted and denied replies. Programs plug in as {@link
 * io.tessera.nfs.oncrpc.RpcProgram}.
 */
package io.tessera.nfs.oncrpc;
