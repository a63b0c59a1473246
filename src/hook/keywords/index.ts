import { ar } from "./ar.js";
import { cs } from "./cs.js";
import { da } from "./da.js";
import { de } from "./de.js";
import { el } from "./el.js";
import { en } from "./en.js";
import { es } from "./es.js";
import { fi } from "./fi.js";
import { fr } from "./fr.js";
import { he } from "./he.js";
import { hi } from "./hi.js";
import { hu } from "./hu.js";
import { id } from "./id.js";
import { it } from "./it.js";
import { ja } from "./ja.js";
import { ko } from "./ko.js";
import { nb } from "./nb.js";
import { nl } from "./nl.js";
import { pl } from "./pl.js";
import { pt } from "./pt.js";
import { ro } from "./ro.js";
import { ru } from "./ru.js";
import { sv } from "./sv.js";
import { th } from "./th.js";
import { tr } from "./tr.js";
import type { KeywordSet } from "./types.js";
import { uk } from "./uk.js";
import { vi } from "./vi.js";
import { zhHans } from "./zh-Hans.js";
import { zhHant } from "./zh-Hant.js";

export type { KeywordSet } from "./types.js";

/**
 * The structural-question keywords of every covered language: Latin script (English, Spanish,
 * Portuguese, French, German, Italian, Dutch, Polish, Turkish, Vietnamese, Indonesian, Czech,
 * Swedish, Danish, Norwegian, Finnish, Romanian, Hungarian), Cyrillic (Russian, Ukrainian), Greek,
 * Chinese (both scripts), Japanese, Korean, Arabic, Hebrew, Thai and Hindi. One file per language.
 */
export const KEYWORD_SETS: readonly KeywordSet[] = [
  en,
  es,
  pt,
  fr,
  de,
  it,
  nl,
  pl,
  tr,
  vi,
  id,
  cs,
  sv,
  da,
  nb,
  fi,
  ro,
  hu,
  ru,
  uk,
  el,
  zhHans,
  zhHant,
  ja,
  ko,
  ar,
  he,
  th,
  hi,
];
