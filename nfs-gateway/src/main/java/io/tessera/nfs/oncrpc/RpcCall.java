package io.tessera.nfs.oncrpc;

import java.net.InetAddress;

/**
 * One RPC call as a program sees it: the procedure, who calls (address and credential) and its
 * arguments, read from the record that carried it.
 *
 * @param xid the caller's transaction id
 * @param version the program version asked for
 * @param procedure the procedure number
 * @param credential AUTH_UNIX credentials, or {@link UnixCredential#NOBODY} for AUTH_NONE
 * @param client the address the call came from (exports are checked on it at every call)
 * @param clientPort the port it came from (an export's {@code secure} wants one below 1024)
 * @param args the arguments, positioned after the call header
 */
public record RpcCall(
    int xid,
    int version,
    int procedure,
    UnixCredential credential,
    InetAddress client,
    int clientPort,
    XdrReader args) {}
