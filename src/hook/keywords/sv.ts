import { phrases, type KeywordSet } from "./types.js";

export const sv: KeywordSet = {
  lang: "sv",
  name: "Swedish",
  match: "words",
  patterns: phrases(`
    hur fungerar | hur funkar | hur används | var finns | var ligger | var definieras | var anropas | vilken fil | vilken funktion
    vilken klass | vilken metod | vilken modul | vem anropar | vad anropar | anropas | anropad* | vem använder | används av
    flöde* | dataflöde | livscykel* | ingångspunkt | vad händer | påverkan | påverkas | beror på | arkitektur* | struktur*
    definierad* | implementerad* | implementation* av | relation* mellan
  `),
};
