package io.tessera.it.nfs;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.dcache.oncrpc4j.portmap.OncRpcPortmap;
import org.dcache.oncrpc4j.portmap.mapping;
import org.dcache.oncrpc4j.rpc.OncRpcProgram;
import org.dcache.oncrpc4j.rpc.OncRpcSvc;
import org.dcache.oncrpc4j.rpc.OncRpcSvcBuilder;
import org.dcache.oncrpc4j.rpc.RpcCall;
import org.dcache.oncrpc4j.rpc.RpcDispatchable;
import org.dcache.oncrpc4j.xdr.XdrInt;
import org.dcache.oncrpc4j.xdr.XdrVoid;

/**
 * A portmapper on 127.0.0.1:111 (oncrpc4j's RPC server answering PMAPPROC_GETPORT), for NFS clients
 * that find MOUNT and NFS through one, as the Java client the tests use does: the gateway registers
 * with none. A test points it at whichever gateway it talks to. Needs root, as CI has.
 */
final class LoopbackPortmap implements AutoCloseable {
  static final int NFS = 100003;
  static final int MOUNT = 100005;
  private final Map<Integer, Integer> ports = new ConcurrentHashMap<>();
  private final OncRpcSvc server;

  LoopbackPortmap() throws IOException {
    RpcDispatchable getPort =
        (RpcCall call) -> {
          switch (call.getProcedure()) {
            case OncRpcPortmap.PMAPPROC_NULL -> call.reply(XdrVoid.XDR_VOID);
            case OncRpcPortmap.PMAPPROC_GETPORT -> {
              mapping asked = new mapping();
              call.retrieveCall(asked);
              call.reply(
                  new XdrInt(asked.getVers() == 3 ? ports.getOrDefault(asked.getProg(), 0) : 0));
            }
            default -> call.failProcedureUnavailable();
          }
        };
    server =
        new OncRpcSvcBuilder()
            .withBindAddress("127.0.0.1")
            .withPort(OncRpcPortmap.PORTMAP_PORT)
            .withTCP()
            .withoutAutoPublish()
            .withSelectorThreadPoolSize(1)
            .withWorkerThreadPoolSize(1)
            .withRpcService(
                new OncRpcProgram(OncRpcPortmap.PORTMAP_PROGRAMM, OncRpcPortmap.PORTMAP_V2),
                getPort)
            .build();
    try {
      server.start();
    } catch (IOException e) {
      throw new IOException(
          "cannot serve a portmapper on 127.0.0.1:111 for the NFS client (is rpcbind running, or"
              + " are the tests not run as root?): "
              + e.getMessage(),
          e);
    }
  }

  /** Points NFS v3 and MOUNT v3 at a gateway's ports. */
  void point(int nfsPort, int mountPort) {
    ports.put(NFS, nfsPort);
    ports.put(MOUNT, mountPort);
  }

  @Override
  public void close() throws IOException {
    server.stop();
  }
}
