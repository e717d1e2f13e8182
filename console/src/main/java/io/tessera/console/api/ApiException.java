package io.tessera.console.api;

/** An API call that fails with this HTTP status; the message tells the caller what to do. */
public final class ApiException extends RuntimeException {
  private final int status;

  public ApiException(int status, String message) {
    super(message, null, false, false);
    this.status = status;
  }

  public int status() {
    return status;
  }
}
