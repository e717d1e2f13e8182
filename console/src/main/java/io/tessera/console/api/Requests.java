package io.tessera.console.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import io.javalin.http.Context;

/** Reading what a caller sent: JSON bodies, paths and paging parameters, each checked. */
public final class Requests {
  /** Longest path accepted (the namespace's own limit is lower). */
  static final int MAX_PATH = 4096;

  /** Strict: an unknown field is a mistake the caller should hear about. */
  public static final ObjectMapper JSON =
      new ObjectMapper().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  private Requests() {}

  /** The JSON body as {@code type}; 400 naming what is wrong with it. */
  static <T> T body(Context ctx, Class<T> type) {
    String body = ctx.body();
    if (body.isBlank()) {
      throw new ApiException(400, "this call needs a JSON body");
    }
    try {
      return JSON.readValue(body, type);
    } catch (UnrecognizedPropertyException e) {
      throw new ApiException(
          400, "unknown field '" + e.getPropertyName() + "'; known: " + e.getKnownPropertyIds());
    } catch (JsonProcessingException e) {
      throw new ApiException(
          400, "the body is not valid JSON for this call: " + e.getOriginalMessage());
    }
  }

  /**
   * A path parameter of the namespace: absolute, with no "." or ".." segment (after the URL
   * decoding, so %2e%2e is refused too) and no control characters.
   */
  static String path(Context ctx, String param) {
    String p = ctx.queryParam(param);
    if (p == null || p.isEmpty()) {
      throw new ApiException(
          400, "give the '" + param + "' parameter, an absolute path like /data");
    }
    return checkPath(p);
  }

  /** {@link #path}'s checks on a path from anywhere (a body, a parameter). */
  static String checkPath(String p) {
    if (p.length() > MAX_PATH) {
      throw new ApiException(400, "path longer than " + MAX_PATH + " characters");
    }
    if (!p.startsWith("/")) {
      throw new ApiException(400, "path '" + p + "' is not absolute: start it with /");
    }
    for (String segment : p.split("/", -1)) {
      if (segment.equals("..") || segment.equals(".")) {
        throw new ApiException(
            400, "path '" + p + "' has a '" + segment + "' segment: give it without");
      }
    }
    for (int i = 0; i < p.length(); i++) {
      if (Character.isISOControl(p.charAt(i))) {
        throw new ApiException(400, "path has a control character at " + i);
      }
    }
    return p;
  }

  /** An optional whole-number parameter within [min, max]. */
  static long number(Context ctx, String param, long dflt, long min, long max) {
    String v = ctx.queryParam(param);
    if (v == null || v.isEmpty()) {
      return dflt;
    }
    try {
      long n = Long.parseLong(v);
      if (n < min || n > max) {
        throw new ApiException(
            400, "'" + param + "' must be from " + min + " to " + max + ", not " + n);
      }
      return n;
    } catch (NumberFormatException e) {
      throw new ApiException(400, "'" + param + "' must be a whole number, not '" + v + "'");
    }
  }
}
