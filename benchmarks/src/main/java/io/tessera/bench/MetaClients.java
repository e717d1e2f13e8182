package io.tessera.bench;

import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The P clients of {@code bench meta}: in this process when P is 1, else P processes of their own
 * ({@code tessera bench meta-client}), driven over their standard input one phase at a time so that
 * all of them start a phase together; a phase's time runs from sending it to the last reply.
 */
abstract class MetaClients implements Closeable {
  /** Makes the directories a phase needs in every client (untimed). */
  abstract void prepare(String dir, boolean ownDirs) throws Exception;

  /** Every client runs {@code op} on {@code filesPerClient} files; wall-clock seconds. */
  abstract double phase(MetaWorkload.Op op, String dir, boolean ownDirs, int filesPerClient)
      throws Exception;

  /** One client: this process's threads. */
  static final class InProcess extends MetaClients {
    private final MetaWorkload work;

    InProcess(MetaWorkload work) {
      this.work = work;
    }

    @Override
    void prepare(String dir, boolean ownDirs) throws Exception {
      work.prepare(dir, 0, ownDirs);
    }

    @Override
    double phase(MetaWorkload.Op op, String dir, boolean ownDirs, int files) throws Exception {
      return work.run(op, dir, 0, ownDirs, files);
    }

    @Override
    public void close() {
      work.close();
    }
  }

  /** P client processes. */
  static final class Processes extends MetaClients {
    private final List<Process> processes = new ArrayList<>();
    private final List<Writer> to = new ArrayList<>();
    private final List<BufferedReader> from = new ArrayList<>();

    /** Starts {@code clients} processes, client i running {@code command(i)}. */
    Processes(int clients, java.util.function.IntFunction<List<String>> command)
        throws IOException {
      try {
        for (int i = 0; i < clients; i++) {
          Process p =
              new ProcessBuilder(command.apply(i))
                  .redirectError(ProcessBuilder.Redirect.INHERIT)
                  .start();
          processes.add(p);
          to.add(new OutputStreamWriter(p.getOutputStream(), StandardCharsets.UTF_8));
          from.add(
              new BufferedReader(
                  new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)));
        }
        for (int i = 0; i < clients; i++) {
          expect(i, "ready");
        }
      } catch (IOException | RuntimeException e) {
        close();
        throw e;
      }
    }

    @Override
    void prepare(String dir, boolean ownDirs) throws IOException {
      for (int i = 0; i < processes.size(); i++) {
        send(i, "prepare " + dir + " " + ownDirs);
      }
      for (int i = 0; i < processes.size(); i++) {
        expect(i, "ok");
      }
    }

    @Override
    double phase(MetaWorkload.Op op, String dir, boolean ownDirs, int files) throws IOException {
      long start = System.nanoTime();
      for (int i = 0; i < processes.size(); i++) {
        send(i, String.format(Locale.ROOT, "run %s %s %b %d", op, dir, ownDirs, files));
      }
      for (int i = 0; i < processes.size(); i++) {
        expect(i, "ok");
      }
      return (System.nanoTime() - start) / 1e9;
    }

    private void send(int client, String line) throws IOException {
      Writer w = to.get(client);
      w.write(line + "\n");
      w.flush();
    }

    /** Reads client {@code i}'s reply, which must start with {@code word}. */
    private void expect(int client, String word) throws IOException {
      String line = from.get(client).readLine();
      if (line == null || !line.startsWith(word)) {
        throw new IOException(
            "bench meta client "
                + client
                + (line == null ? " exited" : " answered: " + line)
                + " (its errors are above)");
      }
    }

    @Override
    public void close() {
      for (int i = 0; i < processes.size(); i++) {
        try {
          send(i, "quit");
        } catch (IOException e) {
          // it is gone already
        }
      }
      for (Process p : processes) {
        try {
          if (!p.waitFor(10, TimeUnit.SECONDS)) {
            p.destroyForcibly();
          }
        } catch (InterruptedException e) {
          p.destroyForcibly();
          Thread.currentThread().interrupt();
        }
      }
    }
  }
}
