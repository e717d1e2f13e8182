package io.tessera.cli.options;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import java.io.PrintWriter;
import java.time.Instant;

/**
 * The {@code --json} output of listings: records as they are (components in order), times as
 * ISO-8601 text.
 */
public final class CliJson {
  private static final ObjectMapper JSON =
      new ObjectMapper()
          .enable(SerializationFeature.INDENT_OUTPUT)
          .registerModule(
              new SimpleModule().addSerializer(Instant.class, ToStringSerializer.instance));

  private CliJson() {}

  /** Prints {@code value} as indented JSON. */
  public static void print(PrintWriter out, Object value) throws JsonProcessingException {
    out.println(JSON.writeValueAsString(value));
  }
}
