import { describe, expect, it } from "vitest";
import { asksForCallers } from "../../src/query/explore.js";
import { looksLikeMessage, messageFragments } from "../../src/query/explore-literal.js";
import { exceptionNames } from "../../src/query/explore-mentions.js";
import { queryTerms } from "../../src/query/explore-rank.js";
import { identifierParts, stem } from "../../src/query/stem.js";

describe("stems meet words and identifiers halfway", () => {
  it("maps inflections of one word to one stem", () => {
    expect(new Set(["resolver", "resolved", "resolve", "resolving"].map(stem))).toEqual(new Set(["resolv"]));
    expect(stem("applied")).toBe(stem("apply"));
    expect(stem("tasks")).toBe("task");
    expect(stem("saved")).toBe(stem("save"));
  });

  it("never cuts a word below four letters", () => {
    expect(stem("uses")).toBe("uses");
    expect(stem("map")).toBe("map");
  });

  it("splits identifiers into their words", () => {
    expect(identifierParts("runWorker")).toEqual(["run", "worker"]);
    expect(identifierParts("get_task")).toEqual(["get", "task"]);
    expect(identifierParts("HTTPServerError")).toEqual(["http", "server", "error"]);
  });
});

describe("a question's terms", () => {
  it("are its first 64 distinct names when it is a paste of thousands", () => {
    const names = Array.from({ length: 5000 }, (_, i) => `Client.handleRequest${i % 2500}`);
    const terms = queryTerms(`how does ${names.join(" ")} work`);
    expect(terms).toHaveLength(64);
    expect(terms[0]).toEqual({ term: "Client.handleRequest0", code: true });
    expect(terms[63]!.term).toBe("Client.handleRequest63");
  });
});

describe("pasted messages", () => {
  it("are told from questions", () => {
    expect(looksLikeMessage("TypeError: You provided an invalid object")).toBe(true);
    expect(looksLikeMessage("Http404: No Article matches the given query.")).toBe(true);
    expect(looksLikeMessage("Forbidden (CSRF cookie not set.): /accounts/login/")).toBe(true);
    expect(looksLikeMessage("how does the router match a path")).toBe(false);
  });

  it("keep the fixed words of the literal and drop the values formatted into it", () => {
    expect(messageFragments("Http404: No Article matches the given query.")).toContain("matches the given query");
    expect(messageFragments("Error: executing a cancelled action")).toContain("executing a cancelled action");
    const dup = messageFragments("java.lang.IllegalStateException: Duplicate key a (attempted merging values 1 and 2)");
    expect(dup).toContain("attempted merging values");
    expect(dup).toContain("Duplicate key");
    const rejected = messageFragments(
      "RejectedExecutionException: Task com.example.Job@5e2de80c rejected from java.util.concurrent.ThreadPoolExecutor@1",
    );
    expect(rejected).toEqual(["rejected from"]);
  });

  it("name their exception classes", () => {
    expect(exceptionNames("django.core.exceptions.RequestDataTooBig: Request body exceeded")).toEqual([
      "RequestDataTooBig",
    ]);
    expect(exceptionNames("java.util.UnknownFormatConversionException: Conversion = 'q'")).toEqual([
      "UnknownFormatConversionException",
    ]);
    expect(exceptionNames("ObjectUnsubscribedError: object unsubscribed")).toEqual(["ObjectUnsubscribedError"]);
  });
});

describe("callers questions", () => {
  it("are recognised in their usual spellings", () => {
    for (const q of [
      "what calls mergeInternals",
      "who uses parseConfig?",
      "callers of QuerySet.filter",
      "where is chargeCard called",
    ]) {
      expect(asksForCallers(q), q).toBe(true);
    }
    for (const q of ["how does mergeInternals work", "call the API with retries"])
      expect(asksForCallers(q), q).toBe(false);
  });
});
