/**
 * Framing and RPC over Netty shared by every protocol: frames with a header and a raw payload,
 * bounded buffers for incomplete frames, client pools that follow the meta leader, and servers with
 * limits on what a peer may send.
 */
package io.tessera.common.rpc;
