/** Bearer tokens: who is calling, and whether they may act or only look. */
package io.tessera.console.auth;
