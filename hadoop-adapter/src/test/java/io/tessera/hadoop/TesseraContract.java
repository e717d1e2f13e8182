package io.tessera.hadoop;

import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.contract.AbstractFSContract;

/** Tessera's semantics for Hadoop's contract tests: {@code contract/tessera.xml}. */
final class TesseraContract extends AbstractFSContract {
  private final URI cluster;
  private FileSystem fs;

  TesseraContract(Configuration conf, URI cluster) {
    super(conf);
    this.cluster = cluster;
    addConfResource("contract/tessera.xml");
  }

  @Override
  public void init() throws IOException {
    super.init();
    fs = FileSystem.get(cluster, getConf());
  }

  @Override
  public FileSystem getTestFileSystem() {
    return fs;
  }

  @Override
  public Path getTestPath() {
    return new Path("/test");
  }

  @Override
  public String getScheme() {
    return "tessera";
  }
}
