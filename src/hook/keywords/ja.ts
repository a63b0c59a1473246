import { phrases, type KeywordSet } from "./types.js";

export const ja: KeywordSet = {
  lang: "ja",
  name: "Japanese",
  match: "substring",
  patterns: phrases(`
    どのように | どうやって | どう動 | どう実装 | 仕組み | どこで | どこに | どこから | どのファイル | どの関数 | どのクラス
    どのメソッド | どのモジュール | 誰が呼 | 呼び出 | 呼ばれ | 呼び元 | 流れ | データフロー | 処理フロー | ライフサイクル
    エントリーポイント | エントリポイント | 何が起こ | 何が起き | 影響 | 依存 | アーキテクチャ | 構造 | 定義され | 定義さ
    実装され | の関係
  `),
};
