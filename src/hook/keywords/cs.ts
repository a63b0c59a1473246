import { phrases, type KeywordSet } from "./types.js";

export const cs: KeywordSet = {
  lang: "cs",
  name: "Czech",
  match: "words",
  patterns: phrases(`
    jak funguje | jak fungují | kde je | kde jsou | kde se | ve kterém souboru | který soubor | která funkce | která třída
    která metoda | který modul | kdo volá | co volá | volán* | kdo používá | používán* | tok | tok dat | životní cyklus
    vstupní bod | co se stane | co se děje | dopad | ovlivn* | závisí na | závislosti mezi | architektur* | struktur*
    definován* | implementován* | implementace | vztah mezi
  `),
};
