import { phrases, type KeywordSet } from "./types.js";

export const hu: KeywordSet = {
  lang: "hu",
  name: "Hungarian",
  match: "words",
  patterns: phrases(`
    hogyan működik | hogyan működnek | hogyan történik | hol van | hol vannak | hol található | hol definiál* | melyik fájl*
    melyik függvény* | melyik osztály* | melyik metódus* | melyik modul* | ki hívja | mi hívja | hívód* | meghív* | ki használja
    adatfolyam | vezérlési folyamat | életciklus* | belépési pont | mi történik | hatása | kihat* | függőség* | architektúr*
    struktúr* | felépítés* | definiál* | implementál* | megvalósít* | kapcsolat*
  `),
};
