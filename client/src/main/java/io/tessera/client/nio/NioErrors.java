package io.tessera.client.nio;

import io.tessera.common.status.TesseraException;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/** Tessera's refusals as the exceptions java.nio callers catch, naming the path. */
final class NioErrors {
  private NioErrors() {}

  static IOException translate(TesseraException e, String path, String other) {
    FileSystemException out =
        switch (e.status()) {
          case NOT_FOUND -> new NoSuchFileException(path, other, e.getMessage());
          case EXISTS -> new FileAlreadyExistsException(other != null ? other : path);
          case NOT_EMPTY -> new DirectoryNotEmptyException(path);
          // a path through a file names nothing, as on Unix (ENOTDIR reads as missing to Java)
          case NOT_DIRECTORY -> new NoSuchFileException(path, other, e.getMessage());
          case IS_DIRECTORY -> new FileSystemException(path, other, "Is a directory");
          case PERMISSION_DENIED, READ_ONLY ->
              new AccessDeniedException(path, other, e.getMessage());
          default -> null;
        };
    if (out == null) {
      return e;
    }
    out.initCause(e);
    return out;
  }

  static NotDirectoryException notDirectory(String path) {
    return new NotDirectoryException(path);
  }
}
