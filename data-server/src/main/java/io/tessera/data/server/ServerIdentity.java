package io.tessera.data.server;

import io.tessera.common.cluster.ServerIds;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Binds a data directory to one server id, so two servers never share or swap directories. */
final class ServerIdentity {
  private static final String FILE = "server-id";

  private ServerIdentity() {}

  static void claim(Path dir, String id) throws IOException {
    ServerIds.requireValid(id);
    Files.createDirectories(dir);
    Path f = dir.resolve(FILE);
    if (Files.exists(f)) {
      String existing = Files.readString(f, StandardCharsets.UTF_8).trim();
      if (!existing.equals(id)) {
        throw new IllegalArgumentException(
            "directory "
                + dir
                + " belongs to data server '"
                + existing
                + "', not '"
                + id
                + "': start it with --id "
                + existing
                + " or use another --dir");
      }
    } else {
      Files.writeString(f, id + "\n", StandardCharsets.UTF_8);
    }
  }
}
