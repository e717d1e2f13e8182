package io.tessera.it.nfs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Debian's nfs-ganesha with its VFS backend on a local directory: the reference NFSv3 server the
 * differential test compares the gateway with. It runs with rpcbind (which it registers with) in a
 * network namespace the test creates, so neither touches the machine's own port 111.
 */
final class GaneshaServer implements AutoCloseable {
  final String namespace;
  final Path export;
  private final Path dir;
  private final List<Process> processes = new ArrayList<>();

  GaneshaServer(Path dir) throws IOException, InterruptedException {
    this.dir = dir;
    this.namespace = "tessera-ganesha-" + ProcessHandle.current().pid();
    this.export = dir.resolve("export");
    Files.createDirectories(export);
    Files.createDirectories(dir.resolve("run"));
    must("ip", "netns", "add", namespace);
    must("ip", "netns", "exec", namespace, "ip", "link", "set", "lo", "up");
    start("rpcbind", "-f", "-w");
    Path conf = dir.resolve("ganesha.conf");
    Files.writeString(
        conf,
        String.join(
            "\n",
            "NFS_CORE_PARAM {",
            "  NFS_Port = 2049; MNT_Port = 20048; Protocols = 3;",
            "  Enable_NLM = false; Enable_RQUOTA = false; Enable_UDP = false;",
            "}",
            "NFS_KRB5 { Active_krb5 = false; }",
            "NFSV4 { Graceless = true; }",
            "EXPORT {",
            "  Export_Id = 1; Path = " + export + "; Pseudo = " + export + ";",
            "  Protocols = 3; Transports = TCP; Access_Type = RW;",
            "  Squash = No_Root_Squash; SecType = sys;",
            "  FSAL { Name = VFS; }",
            "}",
            ""));
    Path log = dir.resolve("ganesha.log");
    start(
        "ganesha.nfsd",
        "-F",
        "-f",
        conf.toString(),
        "-L",
        log.toString(),
        "-p",
        dir.resolve("run/ganesha.pid").toString(),
        "-N",
        "NIV_EVENT");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!(Files.exists(log) && Files.readString(log).contains("NFS SERVER INITIALIZED"))) {
      if (System.nanoTime() > deadline || !processes.get(processes.size() - 1).isAlive()) {
        close();
        throw new IOException("nfs-ganesha did not start; see " + log);
      }
      processes.get(processes.size() - 1).waitFor(200, TimeUnit.MILLISECONDS);
    }
  }

  /** The command run inside the namespace. */
  List<String> inside(List<String> cmd) {
    List<String> out = new ArrayList<>(List.of("ip", "netns", "exec", namespace));
    out.addAll(cmd);
    return out;
  }

  private void start(String... cmd) throws IOException {
    processes.add(
        new ProcessBuilder(inside(List.of(cmd)))
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve(cmd[0] + ".out").toFile())
            .start());
  }

  private static void must(String... cmd) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    if (p.waitFor() != 0) {
      throw new IOException(String.join(" ", cmd) + " failed: " + out.strip());
    }
  }

  @Override
  public void close() throws IOException, InterruptedException {
    for (int i = processes.size() - 1; i >= 0; i--) {
      Process p = processes.get(i);
      p.destroy();
      if (!p.waitFor(20, TimeUnit.SECONDS)) {
        p.destroyForcibly();
      }
    }
    new ProcessBuilder("ip", "netns", "delete", namespace).start().waitFor();
  }
}
