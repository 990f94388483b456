// What other capabilities use of files: everything else in this folder is its own.
export { storeLogoUpload } from "./logo-upload";
