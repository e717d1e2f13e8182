package io.tessera.meta.recovery;

import io.tessera.common.proto.DataRequestProto;
import io.tessera.common.proto.DirtyClearRequestProto;
import io.tessera.common.proto.DirtyScanRequestProto;
import io.tessera.common.proto.DirtyScanResponseProto;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The dirty-file log entries of one file on the servers that wrote around another: read before and
 * after a rebuild (unchanged: no write went around it meanwhile) and cleared once it is done.
 */
final class DirtySequences {
  private final DataServerCalls calls;

  DirtySequences(DataServerCalls calls) {
    this.calls = calls;
  }

  /** The survivors' dirty-file sequences of the file for the target (absent: 0). */
  Map<String, Long> sequences(List<String> servers, String target, long fileId) {
    Map<String, DataRequestProto.Builder> scans = new LinkedHashMap<>();
    for (String server : servers) {
      scans.put(
          server,
          DataRequestProto.newBuilder()
              .setDirtyScan(
                  DirtyScanRequestProto.newBuilder()
                      .setServer(target)
                      .setOneFile(true)
                      .setFileId(fileId)));
    }
    Map<String, Long> out = new HashMap<>();
    calls
        .callAllHeaders(scans)
        .forEach(
            (server, h) -> {
              DirtyScanResponseProto d = h.getDirty();
              out.put(server, d.getSequencesCount() == 0 ? 0L : d.getSequences(0));
            });
    return out;
  }

  void clear(List<String> servers, String target, long fileId, Map<String, Long> sequences) {
    Map<String, DataRequestProto.Builder> clears = new LinkedHashMap<>();
    for (String server : servers) {
      long seq = sequences.get(server);
      if (seq != 0) {
        clears.put(
            server,
            DataRequestProto.newBuilder()
                .setDirtyClear(
                    DirtyClearRequestProto.newBuilder()
                        .setServer(target)
                        .addFileIds(fileId)
                        .addSequences(seq)));
      }
    }
    calls.callAllHeaders(clears);
  }
}
