package io.tessera.it.nfs;

import com.emc.ecs.nfsclient.nfs.NfsCreateMode;
import java.io.IOException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;

/**
 * One sequence of NFSv3 operations, run the same way against any server, written down as what a
 * client sees: status codes, sizes, directory contents and digests of the data. The differential
 * test runs it against the gateway and against nfs-ganesha and compares the two transcripts.
 */
public final class NfsScript {
  private final NfsCalls nfs;
  private final List<String> lines = new ArrayList<>();

  private NfsScript(NfsCalls nfs) {
    this.nfs = nfs;
  }

  /** Runs the sequence in a new directory {@code name} of the mounted export. */
  static List<String> transcript(NfsCalls nfs, String name) throws IOException {
    NfsScript s = new NfsScript(nfs);
    s.run(name);
    return s.lines;
  }

  private void note(String step, Object result) {
    lines.add(step + " -> " + result);
  }

  private void run(String name) throws IOException {
    byte[] root = nfs.root();
    note("mkdir d", nfs.mkdir(root, name, 0755));
    note("mkdir d again", nfs.mkdir(root, name, 0755));
    byte[] d = nfs.handle(root, name);
    note("create a guarded", nfs.create(d, "a", NfsCreateMode.GUARDED));
    note("create a guarded again", nfs.create(d, "a", NfsCreateMode.GUARDED));
    note("create a unchecked", nfs.create(d, "a", NfsCreateMode.UNCHECKED));
    note("create c exclusive", nfs.create(d, "c", NfsCreateMode.EXCLUSIVE));
    note("create c exclusive, retransmitted", nfs.create(d, "c", NfsCreateMode.EXCLUSIVE));
    note("create c guarded", nfs.create(d, "c", NfsCreateMode.GUARDED));
    byte[] a = nfs.handle(d, "a");
    byte[] data = new byte[10_000];
    new Random(1).nextBytes(data);
    var w = nfs.write(a, 0, data, NfsCalls.FILE_SYNC);
    note("write 10000 file_sync", NfsCalls.name(w.getState()) + " count " + w.getCount());
    byte[] patch = new byte[100];
    new Random(2).nextBytes(patch);
    note("write 100 at 5000 unstable", NfsCalls.name(nfs.write(a, 5000, patch, 0).getState()));
    note("commit", nfs.commit(a));
    note("read 0..20000", digest(nfs.read(a, 0, 20_000)));
    note("truncate 3000", nfs.truncate(a, 3000));
    note("size", nfs.size(a));
    note("extend 8192", nfs.truncate(a, 8192));
    note("read 0..8192", digest(nfs.read(a, 0, 8192)));
    note("read past end", digest(nfs.read(a, 100_000, 10)));
    note("lookup missing", nfs.lookup(d, "missing"));
    note("lookup long name", nfs.lookup(d, "n".repeat(300)));
    note("create b", nfs.create(d, "b", NfsCreateMode.GUARDED));
    note("rename a over b", nfs.rename(d, "a", d, "b"));
    note("lookup a", nfs.lookup(d, "a"));
    note("size b", nfs.size(nfs.handle(d, "b")));
    note("mkdir sub", nfs.mkdir(d, "sub", 0755));
    byte[] sub = nfs.handle(d, "sub");
    note("create sub/x", nfs.create(sub, "x", NfsCreateMode.GUARDED));
    note("rename file b over directory sub", nfs.rename(d, "b", d, "sub"));
    note("rename directory sub over file b", nfs.rename(d, "sub", d, "b"));
    note("rename missing", nfs.rename(d, "missing", d, "c"));
    note("rmdir non-empty sub", nfs.rmdir(d, "sub"));
    note("remove sub (a directory)", nfs.remove(d, "sub"));
    note("rmdir b (a file)", nfs.rmdir(d, "b"));
    note("write to a directory", NfsCalls.name(nfs.write(sub, 0, patch, 2).getState()));
    note("remove sub/x", nfs.remove(sub, "x"));
    note("rmdir sub", nfs.rmdir(d, "sub"));
    note("remove sub again", nfs.remove(d, "sub"));
    note("list", nfs.listPlus(d, 8192).stream().sorted().toList());
  }

  private static String digest(Object read) {
    if (read instanceof String status) {
      return status;
    }
    byte[] b = (byte[]) read;
    try {
      byte[] h = MessageDigest.getInstance("SHA-256").digest(b);
      return b.length + " bytes sha256 " + HexFormat.of().formatHex(h, 0, 8);
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Runs against the export given (through the portmapper on 127.0.0.1), printing the lines. */
  public static void main(String[] args) throws IOException {
    NfsCalls nfs = NfsCalls.mount(args[0], 0, 0);
    for (String line : transcript(nfs, args[1])) {
      System.out.println(line);
    }
    System.exit(0); // the client's I/O threads are not daemons
  }
}
