// The assets inside the bundle. build.mjs puts in this module's place one that imports every asset
// of embedded-assets.json with esbuild's loaders (a string for UTF-8 text, a Uint8Array for the
// rest). Running the sources (tsx) there are none, and embedded-assets.ts reads the files instead.
export const bundledAssets: Readonly<Record<string, string | Uint8Array>> | undefined = undefined;
