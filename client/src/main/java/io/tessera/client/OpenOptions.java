package io.tessera.client;

import java.util.Objects;

/** How {@link TesseraFileSystem#openFile(String, OpenOptions)} opens an existing file. */
public final class OpenOptions {
  private final boolean write;
  private final Sharing sharing;

  private OpenOptions(boolean write, Sharing sharing) {
    this.write = write;
    this.sharing = sharing;
  }

  /** To read only. */
  public static OpenOptions read() {
    return new OpenOptions(false, null);
  }

  /** To read and write. */
  public static OpenOptions write() {
    return new OpenOptions(true, null);
  }

  /**
   * Declares how this open shares the file with other clients ({@link Sharing}); refused at open
   * when another client's declared intent conflicts.
   */
  public OpenOptions sharing(Sharing s) {
    Objects.requireNonNull(s, "sharing");
    if (write && s == Sharing.SHARED_READERS) {
      throw new IllegalArgumentException(
          "an open for writing cannot promise that every opener only reads (SHARED_READERS)");
    }
    return new OpenOptions(write, s);
  }

  public boolean forWriting() {
    return write;
  }

  /** The declared intent, or null. */
  public Sharing sharing() {
    return sharing;
  }
}
