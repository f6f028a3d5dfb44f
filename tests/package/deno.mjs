// Deno resolves lians-score from node_modules with the "deno" condition.
import { sha256Hex, canonicalJson, isInitialized } from "lians-score";
if (!isInitialized()) throw new Error("deno entry should initialize on import");
if (sha256Hex("abc") !== "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad") throw new Error("sha256");
if (canonicalJson("[1.0,1]") !== "[1.0,1]") throw new Error("canonical");
console.log("deno ok");
