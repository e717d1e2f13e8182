package io.tessera.hadoop;

import io.tessera.common.config.Config;
import io.tessera.localcluster.ClusterPlan;
import io.tessera.localcluster.InProcessCluster;
import io.tessera.localcluster.TestPorts;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.contract.AbstractContractAppendTest;
import org.apache.hadoop.fs.contract.AbstractContractBulkDeleteTest;
import org.apache.hadoop.fs.contract.AbstractContractContentSummaryTest;
import org.apache.hadoop.fs.contract.AbstractContractCopyFromLocalTest;
import org.apache.hadoop.fs.contract.AbstractContractCreateTest;
import org.apache.hadoop.fs.contract.AbstractContractDeleteTest;
import org.apache.hadoop.fs.contract.AbstractContractGetEnclosingRoot;
import org.apache.hadoop.fs.contract.AbstractContractGetFileStatusTest;
import org.apache.hadoop.fs.contract.AbstractContractMkdirTest;
import org.apache.hadoop.fs.contract.AbstractContractOpenTest;
import org.apache.hadoop.fs.contract.AbstractContractRenameTest;
import org.apache.hadoop.fs.contract.AbstractContractRootDirectoryTest;
import org.apache.hadoop.fs.contract.AbstractContractSeekTest;
import org.apache.hadoop.fs.contract.AbstractContractSetTimesTest;
import org.apache.hadoop.fs.contract.AbstractContractStreamIOStatisticsTest;
import org.apache.hadoop.fs.contract.AbstractContractUnbufferTest;
import org.apache.hadoop.fs.contract.AbstractContractVectoredReadTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hadoop's own file system contract tests against a whole Tessera cluster in this JVM (3 meta
 * replicas, 6 data servers, files RS 4+2), through {@link TesseraHadoopFileSystem}. Every suite
 * that applies to a hierarchical file system with atomic rename runs here; the ones that do not are
 * listed in docs/hadoop.md with the reason (concat, path handles, multipart upload, etags, safe
 * mode, lease recovery).
 */
class HadoopContractTest {
  @TempDir static Path dir;
  static InProcessCluster cluster;
  static URI uri;
  static String credentials;

  @BeforeAll
  static void start() throws Exception {
    ClusterPlan plan = new ClusterPlan(dir, 3, 6, TestPorts.freeBase(30));
    cluster = InProcessCluster.start(plan, Config.defaults());
    cluster.awaitReady(Duration.ofSeconds(60));
    uri = URI.create("tessera://" + plan.metaAddresses().split(",")[0] + "/");
    credentials = plan.adminCredentials().toString();
  }

  @AfterAll
  static void stop() throws Exception {
    FileSystem.closeAll();
    if (cluster != null) {
      cluster.close();
    }
  }

  static AbstractFSContract contract(Configuration conf) {
    conf.set(TesseraHadoopFileSystem.CREDENTIALS_KEY, credentials);
    conf.set("tessera.ec", "4+2");
    conf.setBoolean("fs.tessera.impl.disable.cache", true);
    return new TesseraContract(conf, uri);
  }

  @Nested
  class Create extends AbstractContractCreateTest {
    @Override
    protected AbstractFSContract createContract(Configuration conf) {
      return contract(conf);
    }
  }

  @Nested
  class Open extends AbstractContractOpenTest {
    @Override
    protected AbstractFSContract createContract(Configuration conf) {
      return contract(conf);
    }
  }

  @Nested
  class Seek extends AbstractContractSeekTest {
    @Override
    protected AbstractFSContract createContract(Configuration conf) {
      return contract(conf);
    }
  }

  @Nested
  class Rename extends AbstractContractRenameTest {
    @Override
    protected AbstractFSContract createContract(Configuration conf) {
      return contract(conf);
    }
  }

  @Nested
  class Delete extends AbstractContractDeleteTest {
    @Override
    protected AbstractFSContract createContract(Configuration conf) {
      return contract(conf);
    }
  }

  @Nested
  class Mkdir extends AbstractContractMkdirTest {
    @Override
    protected AbstractFSContract createContract(Configuration conf) {
      return contract(conf);
    }
  }

  @Nested
  class GetFileStatus extends AbstractContractGetFileStatusTest {
    @Override
    protected AbstractFSContract createContract(Configuration conf) {
      return contract(conf);
    }
  }

  @Nested
  class RootDirectory extends AbstractContractRootDirectoryTest {
    @Override
    protected AbstractFSContract createContract(Configuration conf) {
      return contract(conf);
    }
  }

  @Nested
  class SetTimes extends AbstractContractSetTimesTest {
    @Override
    protected AbstractFSContract createContract(Configuration conf) {
      return contract(conf);
    }
  }

  @Nested
  class Append extends AbstractContractAppendTest {
    @Override
    protected AbstractFSContract createContract(Configuration conf) {
      return contract(conf);
    }
  }

  @Nested
  class ContentSummary extends AbstractContractContentSummaryTest {
    @Override
    protected AbstractFSContract createContract(Configuration conf) {
      return contract(conf);
    }
  }

  @Nested
  class Unbuffer extends AbstractContractUnbufferTest {
    @Override
    protected AbstractFSContract createContract(Configuration conf) {
      return contract(conf);
    }
  }

  @Nested
  class VectoredRead extends AbstractContractVectoredReadTest {
    VectoredRead(String bufferType) {
      super(bufferType);
    }

    @Override
    protected AbstractFSContract createContract(Configuration conf) {
      return contract(conf);
    }
  }

  @Nested
  class CopyFromLocal extends AbstractContractCopyFromLocalTest {
    @Override
    protected AbstractFSContract createContract(Configuration conf) {
      return contract(conf);
    }
  }

  @Nested
  class BulkDelete extends AbstractContractBulkDeleteTest {
    @Override
    protected AbstractFSContract createContract(Configuration conf) {
      return contract(conf);
    }
  }

  @Nested
  class StreamIOStatistics extends AbstractContractStreamIOStatisticsTest {
    @Override
    protected AbstractFSContract createContract(Configuration conf) {
      return contract(conf);
    }
  }

  @Nested
  class EnclosingRoot extends AbstractContractGetEnclosingRoot {
    @Override
    protected AbstractFSContract createContract(Configuration conf) {
      return contract(conf);
    }
  }
}
