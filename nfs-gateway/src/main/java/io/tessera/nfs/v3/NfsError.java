package io.tessera.nfs.v3;

import io.tessera.common.status.TesseraException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** A procedure's failure as an nfsstat3 code, with what happened for the log. */
public final class NfsError extends Exception {
  private final int status;

  public NfsError(int status, String message) {
    super(message, null, false, false);
    this.status = status;
  }

  public int status() {
    return status;
  }

  /** The NFS status of a failure of the Tessera client. */
  public static NfsError of(Throwable t) {
    Throwable c = t;
    while ((c instanceof CompletionException || c instanceof ExecutionException)
        && c.getCause() != null) {
      c = c.getCause();
    }
    if (c instanceof NfsError e) {
      return e;
    }
    if (c instanceof TesseraException te) {
      int status =
          switch (te.status()) {
            case NOT_FOUND -> Nfs3.ERR_NOENT;
            case EXISTS -> Nfs3.ERR_EXIST;
            case NOT_EMPTY -> Nfs3.ERR_NOTEMPTY;
            case NOT_DIRECTORY -> Nfs3.ERR_NOTDIR;
            case IS_DIRECTORY -> Nfs3.ERR_ISDIR;
            case INVALID_ARGUMENT -> Nfs3.ERR_INVAL;
            case NO_SPACE -> Nfs3.ERR_NOSPC;
            case READ_ONLY -> Nfs3.ERR_ROFS;
            case UNAVAILABLE, BUSY, UNREADABLE -> Nfs3.ERR_JUKEBOX;
            default -> Nfs3.ERR_IO;
          };
      return new NfsError(status, te.getMessage());
    }
    if (c instanceof IllegalArgumentException) {
      return new NfsError(Nfs3.ERR_INVAL, c.getMessage());
    }
    return new NfsError(Nfs3.ERR_IO, String.valueOf(c));
  }
}
