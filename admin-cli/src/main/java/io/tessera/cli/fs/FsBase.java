package io.tessera.cli.fs;

import io.tessera.cli.ClusterOptions;
import io.tessera.client.TesseraFileSystem;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** Base of the fs commands: owns the connection to the cluster. */
abstract class FsBase implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Mixin
  ClusterOptions cluster;

  @Override
  public final Integer call() throws Exception {
    try (TesseraFileSystem fs = cluster.connect()) {
      return run(fs);
    }
  }

  abstract int run(TesseraFileSystem fs) throws Exception;

  PrintWriter out() {
    return spec.commandLine().getOut();
  }

  PrintWriter err() {
    return spec.commandLine().getErr();
  }
}
