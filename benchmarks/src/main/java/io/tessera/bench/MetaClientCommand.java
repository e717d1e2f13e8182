package io.tessera.bench;

import io.tessera.cli.options.ClusterOptions;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code tessera bench meta-client}: one client process of {@code bench meta --clients P}, run by
 * it, not by hand. Reads one phase per line on standard input ({@code prepare DIR OWN}, {@code run
 * OP DIR OWN FILES}, {@code quit}) and answers each with one line ({@code ok [SECONDS]} or {@code
 * error MESSAGE}).
 */
@Command(
    name = "meta-client",
    hidden = true,
    description = "One client process of tessera bench meta --clients P (started by it).")
public final class MetaClientCommand implements Callable<Integer> {
  @Mixin ClusterOptions cluster;

  @Option(names = "--threads", required = true, description = "threads of this client")
  int threads;

  @Option(names = "--client", required = true, description = "this client's number")
  int client;

  @Override
  public Integer call() throws Exception {
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    try (MetaWorkload work =
        new MetaWorkload(MetaWorkload.connections(cluster::connect, threads))) {
      out.println("ready");
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        String[] w = line.split(" ");
        try {
          switch (w[0]) {
            case "prepare" -> {
              work.prepare(w[1], client, Boolean.parseBoolean(w[2]));
              out.println("ok");
            }
            case "run" ->
                out.printf(
                    Locale.ROOT,
                    "ok %.6f%n",
                    work.run(
                        MetaWorkload.Op.valueOf(w[1]),
                        w[2],
                        client,
                        Boolean.parseBoolean(w[3]),
                        Integer.parseInt(w[4])));
            case "quit" -> {
              return 0;
            }
            default -> out.println("error unknown phase " + w[0]);
          }
        } catch (Exception e) {
          out.println("error " + e.getMessage());
        }
      }
    }
    return 0;
  }
}
