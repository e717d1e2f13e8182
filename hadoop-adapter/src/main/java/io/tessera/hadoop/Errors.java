package io.tessera.hadoop;

import io.tessera.client.Futures;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.status.TesseraException;
import java.io.FileNotFoundException;
import java.io.IOException;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.fs.PathIsNotEmptyDirectoryException;
import org.apache.hadoop.security.AccessControlException;

/** Tessera's refusals as the exceptions Hadoop callers catch, and waiting for answers so. */
final class Errors {
  private Errors() {}

  static IOException translate(TesseraException e, String path) {
    IOException out =
        switch (e.status()) {
          case NOT_FOUND -> new FileNotFoundException(e.getMessage());
          case EXISTS -> new FileAlreadyExistsException(e.getMessage());
          case NOT_EMPTY -> new PathIsNotEmptyDirectoryException(path + ": " + e.getMessage());
          case NOT_DIRECTORY -> new ParentNotDirectoryException(e.getMessage());
          case IS_DIRECTORY -> new FileNotFoundException(path + " is a directory");
          case PERMISSION_DENIED -> new AccessControlException(e.getMessage());
          default -> e;
        };
    if (out != e) {
      out.initCause(e);
    }
    return out;
  }

  /** Waits for {@code f}; {@code fallback} when the cluster answered one of {@code expected}. */
  static <T> T orElse(
      java.util.concurrent.CompletableFuture<T> f, String path, T fallback, StatusProto... expected)
      throws IOException {
    try {
      return Futures.get(f);
    } catch (TesseraException e) {
      if (java.util.Arrays.asList(expected).contains(e.status())) {
        return fallback;
      }
      throw translate(e, path);
    }
  }

  /** A lookup: a path through a file does not exist, as a missing one (HDFS says the same). */
  static <T> T lookup(java.util.concurrent.CompletableFuture<T> f, String path) throws IOException {
    try {
      return Futures.get(f);
    } catch (TesseraException e) {
      if (e.status() == StatusProto.NOT_DIRECTORY) {
        FileNotFoundException missing = new FileNotFoundException(e.getMessage());
        missing.initCause(e);
        throw missing;
      }
      throw translate(e, path);
    }
  }

  /** Waits for {@code f}, a refusal as the Hadoop exception for {@code path}. */
  static <T> T await(java.util.concurrent.CompletableFuture<T> f, String path) throws IOException {
    return orElse(f, path, null);
  }
}
