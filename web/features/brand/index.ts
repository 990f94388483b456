// What other features (and the shell) may use of brand: its other files are its own (lint rule in eslint.config.js).
export { Brand, BrandName, PageHead, PageTitle } from "./brand";
export { useBrand } from "./queries";
