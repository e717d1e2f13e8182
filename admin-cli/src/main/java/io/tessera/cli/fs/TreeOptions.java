package io.tessera.cli.fs;

import picocli.CommandLine.Option;

/** {@code -r} and {@code --parallel}, shared by put and get. */
final class TreeOptions {
  @Option(
      names = {"-r", "--recursive"},
      description = "copy a directory and everything below it")
  boolean recursive;

  @Option(
      names = "--parallel",
      paramLabel = "N",
      defaultValue = "8",
      description = "with -r: files copied at once (1 to 64; default ${DEFAULT-VALUE})")
  int parallel;

  /** Refuses a --parallel that could not run, as bad usage. */
  void check() {
    if (parallel < 1 || parallel > 64) {
      throw new IllegalArgumentException("--parallel " + parallel + ": from 1 to 64 files at once");
    }
  }
}
