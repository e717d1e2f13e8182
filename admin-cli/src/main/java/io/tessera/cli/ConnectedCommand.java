package io.tessera.cli;

import io.tessera.cli.options.ClusterOptions;
import io.tessera.client.TesseraFileSystem;
import java.io.PrintWriter;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** Base of the commands that talk to a cluster: owns the connection. */
public abstract class ConnectedCommand implements Callable<Integer> {
  @Spec protected CommandSpec spec;

  @Mixin protected ClusterOptions cluster;

  @Override
  public final Integer call() throws Exception {
    checkArguments();
    try (TesseraFileSystem fs = cluster.connect(settings())) {
      return run(fs);
    }
  }

  /**
   * Refuses malformed arguments (IllegalArgumentException: a usage error, exit 2) before the
   * cluster is asked anything; nothing to check by default.
   */
  protected void checkArguments() {}

  /** Client settings this command needs beyond the user's (none by default). */
  protected Map<String, String> settings() {
    return Map.of();
  }

  protected abstract int run(TesseraFileSystem fs) throws Exception;

  protected PrintWriter out() {
    return spec.commandLine().getOut();
  }

  protected PrintWriter err() {
    return spec.commandLine().getErr();
  }
}
