package io.tessera.common.erasure;

import com.backblaze.erasure.CodingLoop;
import com.backblaze.erasure.InputOutputByteTableCodingLoop;

/**
 * Backblaze's tables until {@link VectorWarmup} reports the Vector API loop compiled, then the
 * Vector API loop. Both give identical bytes, so the switch can happen at any call.
 */
final class AdaptiveCodingLoop implements CodingLoop {
  private final CodingLoop tables = new InputOutputByteTableCodingLoop();
  private final CodingLoop vector = new VectorCodingLoop();

  AdaptiveCodingLoop() {
    VectorWarmup.start();
  }

  @Override
  public void codeSomeShards(
      byte[][] matrixRows,
      byte[][] inputs,
      int inputCount,
      byte[][] outputs,
      int outputCount,
      int offset,
      int byteCount) {
    (VectorWarmup.isWarm() ? vector : tables)
        .codeSomeShards(matrixRows, inputs, inputCount, outputs, outputCount, offset, byteCount);
  }

  @Override
  public boolean checkSomeShards(
      byte[][] matrixRows,
      byte[][] inputs,
      int inputCount,
      byte[][] toCheck,
      int checkCount,
      int offset,
      int byteCount,
      byte[] tempBuffer) {
    return (VectorWarmup.isWarm() ? vector : tables)
        .checkSomeShards(
            matrixRows, inputs, inputCount, toCheck, checkCount, offset, byteCount, tempBuffer);
  }
}
