package io.tessera.cli;

import io.tessera.common.proto.StatusProto;
import io.tessera.common.status.TesseraException;
import java.io.IOException;
import picocli.CommandLine;

/** One clear line on stderr per failure, and an exit code scripts can trust. No stack traces. */
final class ErrorReporter implements CommandLine.IExecutionExceptionHandler {
  @Override
  public int handleExecutionException(
      Exception ex, CommandLine cmd, CommandLine.ParseResult parsed) {
    Throwable t = ex;
    while (t.getCause() != null
        && !(t instanceof IOException)
        && !(t instanceof IllegalArgumentException)) {
      t = t.getCause();
    }
    String msg = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    cmd.getErr().println("tessera: " + msg);
    if (t instanceof TesseraException te && te.status() == StatusProto.UNREADABLE) {
      return Tessera.EXIT_UNREADABLE;
    }
    if (t instanceof TesseraException te && te.status() == StatusProto.PERMISSION_DENIED) {
      return Tessera.EXIT_DENIED;
    }
    if (t instanceof TesseraException te && te.status() == StatusProto.UNAVAILABLE) {
      return Tessera.EXIT_UNREACHABLE;
    }
    if (t instanceof IllegalArgumentException) {
      return Tessera.EXIT_USAGE;
    }
    return Tessera.EXIT_FAILED;
  }
}
