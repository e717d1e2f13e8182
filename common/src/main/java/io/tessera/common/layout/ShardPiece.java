package io.tessera.common.layout;

/**
 * A run of file bytes that lies inside one stripe unit: {@code length} bytes at {@code
 * offsetInUnit} of unit {@code unit} of stripe {@code stripe}; {@code bufferOffset} is where the
 * run starts relative to the start of the request.
 */
public record ShardPiece(long stripe, int unit, int offsetInUnit, int length, long bufferOffset) {}
