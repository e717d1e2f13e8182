package io.tessera.client.nio;

import io.tessera.client.Capacity;
import io.tessera.client.Futures;
import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.FileAttributeView;
import java.nio.file.attribute.FileStoreAttributeView;
import java.nio.file.attribute.PosixFileAttributeView;

/**
 * The cluster's space as one store: the raw bytes of the data servers in service, before erasure
 * coding takes its share (a file of n bytes in layout k+m takes about n(k+m)/k).
 */
final class TesseraFileStore extends FileStore {
  private final TesseraNioFileSystem fs;

  TesseraFileStore(TesseraNioFileSystem fs) {
    this.fs = fs;
  }

  private Capacity capacity() throws IOException {
    return Futures.get(fs.files().capacity());
  }

  @Override
  public String name() {
    return "tessera://" + fs.authority();
  }

  @Override
  public String type() {
    return "tessera";
  }

  @Override
  public boolean isReadOnly() {
    return false;
  }

  @Override
  public long getTotalSpace() throws IOException {
    return capacity().totalBytes();
  }

  @Override
  public long getUsableSpace() throws IOException {
    return capacity().freeBytes();
  }

  @Override
  public long getUnallocatedSpace() throws IOException {
    return capacity().freeBytes();
  }

  @Override
  public boolean supportsFileAttributeView(Class<? extends FileAttributeView> type) {
    return type == BasicFileAttributeView.class || type == PosixFileAttributeView.class;
  }

  @Override
  public boolean supportsFileAttributeView(String name) {
    return fs.supportedFileAttributeViews().contains(name);
  }

  @Override
  public <V extends FileStoreAttributeView> V getFileStoreAttributeView(Class<V> type) {
    return null;
  }

  @Override
  public Object getAttribute(String attribute) throws IOException {
    return switch (attribute) {
      case "totalSpace" -> getTotalSpace();
      case "usableSpace" -> getUsableSpace();
      case "unallocatedSpace" -> getUnallocatedSpace();
      default ->
          throw new UnsupportedOperationException("no file store attribute '" + attribute + "'");
    };
  }
}
