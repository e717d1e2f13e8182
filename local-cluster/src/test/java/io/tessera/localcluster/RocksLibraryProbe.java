package io.tessera.localcluster;

import org.rocksdb.RocksDB;

/** Loads RocksDB's native library in a JVM of its own, as a server does before it opens a store. */
public final class RocksLibraryProbe {
  private RocksLibraryProbe() {}

  public static void main(String[] args) {
    RocksDB.loadLibrary();
    System.out.println("loaded");
  }
}
