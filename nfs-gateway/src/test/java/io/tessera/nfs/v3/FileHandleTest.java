package io.tessera.nfs.v3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class FileHandleTest {
  @Test
  void aHandleReadsBackAsTheSameFileOfTheSameExport() throws Exception {
    FileHandle h = new FileHandle(-5, FileHandle.SNAPSHOT, 42, 1234567, 1700000000000L);
    assertThat(FileHandle.of(h.bytes())).isEqualTo(h);
    assertThat(h.bytes().length).isLessThanOrEqualTo(Nfs3.MAX_HANDLE);
  }

  @Test
  void bytesNoGatewayMadeAreABadHandle() {
    byte[] other = new FileHandle(1, FileHandle.LIVE, 0, 2, 3).bytes();
    other[1] = 9;
    assertThatThrownBy(() -> FileHandle.of(other))
        .isInstanceOf(NfsError.class)
        .satisfies(e -> assertThat(((NfsError) e).status()).isEqualTo(Nfs3.ERR_BADHANDLE));
    assertThatThrownBy(() -> FileHandle.of(new byte[12])).isInstanceOf(NfsError.class);
  }
}
