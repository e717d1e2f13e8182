package io.tessera.cli.options;

import io.tessera.common.config.Durations;
import java.time.Duration;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Reads an option's duration (500ms, 5s, 2m, 1h) and refuses zero or less as bad usage: every
 * duration a command takes is a time to wait or watch, which 0 could never give.
 */
public final class PositiveDuration implements ITypeConverter<Duration> {
  @Override
  public Duration convert(String value) {
    Duration d;
    try {
      d = Durations.parse(value);
    } catch (IllegalArgumentException e) {
      throw new TypeConversionException(e.getMessage());
    }
    if (d.isZero() || d.isNegative()) {
      throw new TypeConversionException("'" + value + "' must be more than 0, e.g. 5s or 2m");
    }
    return d;
  }
}
