import lians = require("lians-score");
const r: lians.ScoreMemoryResult = lians.scoreMemory({ content: "x", reference_time: "2026-08-01T00:00:00" });
export = r;
