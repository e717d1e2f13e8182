package io.tessera.it;

import io.tessera.cli.Tessera;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Runs the tessera command in this JVM, as the admin of a test cluster. */
public final class InProcessCli {
  private InProcessCli() {}

  /** What one command printed and its exit code. */
  public record Result(int code, String out, String err) {}

  public static Result run(Path adminCredentials, String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--credentials", adminCredentials.toString()));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        Tessera.run(
            new PrintWriter(out, true), new PrintWriter(err, true), all.toArray(String[]::new));
    return new Result(code, out.toString(), err.toString());
  }
}
