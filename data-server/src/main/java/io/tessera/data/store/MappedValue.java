package io.tessera.data.store;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.UnpooledDirectByteBuf;
import io.netty.util.internal.PlatformDependent;
import java.nio.MappedByteBuffer;

/**
 * A value file mapped into memory as a buffer, unmapped when its last reference is released. A read
 * then costs no buffer and no copy on the server: the checksum is computed over the page cache and
 * the reply is written to the socket from it. (Filling a pooled buffer instead spent more CPU than
 * the copy itself: Netty drops a pool chunk each time it empties, and the next one is zeroed when
 * allocated.) The mapping is private, so nothing written to the buffer can reach the file.
 */
final class MappedValue extends UnpooledDirectByteBuf {
  private final MappedByteBuffer mapping;
  private final Runnable released;

  /** {@code released} runs once the mapping is gone. */
  MappedValue(ByteBufAllocator alloc, MappedByteBuffer mapping, Runnable released) {
    super(alloc, mapping, mapping.capacity());
    this.mapping = mapping;
    this.released = released;
    writerIndex(mapping.capacity());
  }

  @Override
  protected void deallocate() {
    super.deallocate();
    PlatformDependent.freeDirectBuffer(mapping); // unmaps now rather than at some later GC
    released.run();
  }
}
