// Runs after `tsc`: writes dist/vendor/azure.cjs, @azure/identity and @azure/arm-resources as installed,
// bundled into one file, which src/lib/azure/libraries.ts loads instead of the packages' few hundred
// modules (the single executable carries the same bundle as an asset).
import { azureBundleUrl } from '../src/lib/azure/libraries.ts';
import { bundleLazyAsset } from './package-bundle.ts';

const root = new URL('..', import.meta.url).pathname;
const file = new URL(azureBundleUrl, new URL('dist/src/lib/azure/', `file://${root}`)).pathname;
await bundleLazyAsset(root, 'azure.cjs', file);
console.log(`${file.slice(root.length)}: the Azure libraries in one bundle`);
