import parcel from "@parcel/watcher";
for (let i = 0; i < 3; i++) {
  const t = performance.now();
  const s = await parcel.subscribe(process.argv[2], () => {}, { backend: "inotify", ignore: [".git", ".codegraph"] });
  const t1 = performance.now();
  await s.unsubscribe();
  console.log("subscribe", (t1 - t).toFixed(0), "ms, unsubscribe", (performance.now() - t1).toFixed(0), "ms");
}
