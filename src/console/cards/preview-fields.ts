// The editor fields the pass preview shows, shared by the server (previewUrl) and the console
// script that follows typing, so both build the same preview address. No imports: the browser
// bundle takes this file as it is.
export const PREVIEW_PATH = '/console/cards/preview';

export const PREVIEW_FIELDS = /^(name|passType|rewards\[\d+\]\.(name|cost)|levels\[\d+\]\.(name|minPoints)|design\.(backgroundColor|foregroundColor|labelColor|logoText))$/;
