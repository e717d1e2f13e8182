package io.tessera.hadoop;

import io.tessera.common.status.TesseraException;
import java.io.FileNotFoundException;
import java.io.IOException;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.fs.PathIsNotEmptyDirectoryException;
import org.apache.hadoop.security.AccessControlException;

/** Tessera's refusals as the exceptions Hadoop callers catch. */
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
}
