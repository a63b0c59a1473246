import { phrases, type KeywordSet } from "./types.js";

export const it: KeywordSet = {
  lang: "it",
  name: "Italian",
  match: "words",
  patterns: phrases(`
    come funziona | come funzionano | come viene | come vengono | dove è | dov è | dove si | dove sono | dove viene | dove vengono
    in quale file | quale file | quale funzione | quale classe | quale metodo | quale modulo | chi chiama | cosa chiama | chiamat* da
    invocat* | chi usa | usat* da | flusso | flusso dei dati | ciclo di vita | punto di ingresso | cosa succede | che succede | impatto
    dipende da | dipendono da | architettura | struttura d* | definit* | implementat* | implementazione d* | relazione tra
  `),
};
