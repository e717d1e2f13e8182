package io.tessera.bench;

import io.tessera.client.TesseraFile;
import io.tessera.client.TesseraFileSystem;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;

/**
 * Where {@code bench ior}'s clients write and read: N-1 segmented (client c's block at c*B), N-1
 * strided (transfers c, c+N, ...), or a file per client; through streams or one positional call a
 * transfer; and a nonuniform restart's contiguous shares. Every byte is a function of its writer
 * and position ({@link Pattern}), so reads can check it.
 */
final class IorPattern {
  private final int clients;
  private final int transferBytes;
  private final boolean strided;
  private final boolean filePerClient;
  private final boolean unbuffered;

  IorPattern(
      int clients, int transferBytes, boolean strided, boolean filePerClient, boolean unbuffered) {
    this.clients = clients;
    this.transferBytes = transferBytes;
    this.strided = strided;
    this.filePerClient = filePerClient;
    this.unbuffered = unbuffered;
  }

  String file(List<String> files, int client) {
    return filePerClient ? files.get(client) : files.get(0);
  }

  long offset(int client, long bytesPerClient) {
    return filePerClient ? 0 : client * bytesPerClient;
  }

  /**
   * Where transfer {@code j} of {@code client} goes: in its own block ({@code offset} on), or, with
   * --strided, at {@code (j * clients + client) * transfer}.
   */
  private long transferAt(int client, long offset, long j) {
    return strided ? (j * clients + client) * transferBytes : offset + j * transferBytes;
  }

  void write(TesseraFileSystem fs, String path, long offset, long bytes, int client)
      throws IOException {
    Pattern p = new Pattern(client, transferBytes);
    byte[] buf = new byte[transferBytes];
    long transfers = bytes / transferBytes;
    if (unbuffered || strided) {
      try (TesseraFile f = fs.openFile(path)) {
        for (long j = 0; j < transfers; j++) {
          long at = transferAt(client, offset, j);
          p.fill(buf, transferBytes, at);
          f.write(at, buf, 0, transferBytes);
        }
      }
      return;
    }
    try (TesseraFile f = fs.openFile(path);
        OutputStream out = f.newOutputStream(offset)) {
      for (long done = 0; done < bytes; done += transferBytes) {
        p.fill(buf, transferBytes, offset + done);
        out.write(buf, 0, transferBytes);
      }
    }
  }

  void read(TesseraFileSystem fs, String path, long offset, long bytes, int client, boolean check)
      throws IOException {
    Pattern p = new Pattern(client, transferBytes);
    byte[] buf = new byte[transferBytes];
    byte[] expected = check ? new byte[transferBytes] : null;
    long transfers = bytes / transferBytes;
    try (TesseraFile f = fs.openFile(path);
        InputStream in = strided ? null : f.newInputStream(offset)) {
      for (long j = 0; j < transfers; j++) {
        long at = transferAt(client, offset, j);
        if (strided) {
          f.readFully(at, buf, 0, transferBytes);
        } else if (in.readNBytes(buf, 0, transferBytes) != transferBytes) {
          throw new IOException(path + " ended early at " + at);
        }
        if (check) {
          long bad = p.firstMismatch(buf, transferBytes, at, expected);
          if (bad >= 0) {
            throw new IOException("verification failed: " + path + " differs at byte " + bad);
          }
        }
      }
    }
  }

  /**
   * A nonuniform restart's reader {@code reader} of {@code readers}: one contiguous share of the
   * file's {@code total} bytes, in sequential calls of {@code transfer} bytes.
   */
  static void readShare(
      TesseraFileSystem fs, String path, long total, int readers, int reader, int transfer)
      throws IOException {
    long share = (total + readers - 1) / readers;
    long from = Math.min(total, reader * share);
    long to = Math.min(total, from + share);
    byte[] buf = new byte[transfer];
    try (TesseraFile f = fs.openFile(path)) {
      for (long at = from; at < to; at += transfer) {
        f.readFully(at, buf, 0, (int) Math.min(transfer, to - at));
      }
    }
  }
}
