/**
 * What every caller of data.proto shares: the reply as callers see it and its decoding, with what
 * differs between the client and recovery (server health, the failures they report) passed in.
 */
package io.tessera.common.dataio;
