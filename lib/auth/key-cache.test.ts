import { describe, expect, it } from "vitest";
import type { ChannelHandlers, NotificationListener } from "@/lib/db";
import type { KeyAuth } from "./key-auth";
import { KEY_CHANGES_CHANNEL, KeyCache } from "./key-cache";

/** A listener stand-in whose liveness the test sets and whose messages the test sends. */
function fakeListener() {
  const subscribed: ChannelHandlers[] = [];
  const state = { live: true };
  const listener = {
    subscribe: (channel: string, handlers: ChannelHandlers) => {
      expect(channel).toBe(KEY_CHANGES_CHANNEL);
      if (!subscribed.includes(handlers)) subscribed.push(handlers);
    },
    live: () => state.live,
  } as unknown as NotificationListener;
  return { listener, state, send: (id: string) => subscribed.forEach((h) => h.message(id)), reset: () => subscribed.forEach((h) => h.reset()) };
}

const auth = (apiKeyId: string, applicationId: string): KeyAuth => ({
  kind: "key",
  apiKeyId,
  environment: "sandbox",
  conformanceRunId: null,
  application: { id: applicationId, name: "App", status: "sandbox", productionEnabled: false, categoryAllowlist: [], syncMode: "one_time" },
});

describe("KeyCache", () => {
  it("drops the entries of a changed key, or of every key of a changed application", () => {
    const fake = fakeListener();
    const cache = new KeyCache(() => fake.listener);
    cache.set("h1", auth("key_1", "app_1"), cache.version());
    cache.set("h2", auth("key_2", "app_1"), cache.version());
    cache.set("h3", auth("key_3", "app_2"), cache.version());
    fake.send("key_3");
    expect([cache.get("h1"), cache.get("h2"), cache.get("h3")].map(Boolean)).toEqual([true, true, false]);
    fake.send("app_1");
    expect(cache.size).toBe(0);
  });

  it("does not keep a read that raced with a change: the entry read before a message is not stored after it", () => {
    const fake = fakeListener();
    const cache = new KeyCache(() => fake.listener);
    cache.get("warm-up: subscribes");
    const version = cache.version();
    fake.send("key_other");
    cache.set("h1", auth("key_1", "app_1"), version);
    expect(cache.get("h1")).toBeUndefined();
  });

  it("is empty and unused while the listener is not live, and cleared when it resets", () => {
    const fake = fakeListener();
    const cache = new KeyCache(() => fake.listener);
    cache.set("h1", auth("key_1", "app_1"), cache.version());
    fake.state.live = false;
    expect(cache.get("h1")).toBeUndefined();
    cache.set("h2", auth("key_2", "app_1"), cache.version());
    fake.state.live = true;
    expect(cache.get("h2")).toBeUndefined();
    fake.reset();
    expect(cache.size).toBe(0);
  });
});
