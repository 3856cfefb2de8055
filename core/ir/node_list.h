// The order of a graph's nodes: an unrolled list (a chain of chunks of up to
// 61 node pointers each, in order, with no gaps inside a chunk).
//
// A std::list gave every node a separately allocated link, and a walk could
// learn where node k+1 is only after loading node k's link: on a graph larger
// than the cache, one memory round trip per node, which no prefetch could
// hide (the walks' prefetchers had to chase the same links ahead of the
// walk). Here the pointers of 61 consecutive nodes sit in one array, so a walk
// reads ahead by indexing, and chases a link once per chunk.
//
// Each node knows its chunk (not its index: finding a node in its chunk is a
// scan of at most 61 pointers in one allocation, and an index would have to be
// rewritten in every node shifted by an insertion). Inserting before a node
// or removing one shifts the rest of its chunk; a full chunk splits, a chunk
// less than a quarter full merges with a neighbour that leaves the two at
// most half full, so walks stay dense after passes remove most nodes.
// Iterators stay valid until the next insertion or removal (unlike
// std::list's): walks that edit copy the order first, as the passes do.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <vector>

namespace passlab::ir {

class Node;

class NodeList {
 public:
  static constexpr uint32_t kChunkCapacity = 61;  // a 512-byte chunk

  struct Chunk {
    Chunk* prev = nullptr;
    Chunk* next = nullptr;
    uint32_t count = 0;
    mutable uint32_t rank = 0;                      // set by numberChunks (in what was padding)
    std::unique_ptr<Node> entries[kChunkCapacity];  // not "slots": a macro in Qt
  };
  static_assert(sizeof(Chunk) == 512, "a chunk is eight cache lines");

  class const_iterator {
   public:
    using iterator_category = std::bidirectional_iterator_tag;
    using value_type = std::unique_ptr<Node>;
    using difference_type = std::ptrdiff_t;
    using pointer = const std::unique_ptr<Node>*;
    using reference = const std::unique_ptr<Node>&;

    const_iterator() = default;
    reference operator*() const { return chunk_->entries[index_]; }
    pointer operator->() const { return &chunk_->entries[index_]; }
    const_iterator& operator++() {
      if (++index_ == chunk_->count) {
        chunk_ = chunk_->next;
        index_ = 0;
      }
      return *this;
    }
    const_iterator operator++(int) {
      const_iterator old = *this;
      ++*this;
      return old;
    }
    const_iterator& operator--() {
      if (chunk_ == nullptr) {
        chunk_ = list_->tail_;
        index_ = chunk_->count - 1;
      } else if (index_ == 0) {
        chunk_ = chunk_->prev;
        index_ = chunk_->count - 1;
      } else {
        --index_;
      }
      return *this;
    }
    const_iterator operator--(int) {
      const_iterator old = *this;
      --*this;
      return old;
    }
    bool operator==(const const_iterator& o) const {
      return chunk_ == o.chunk_ && index_ == o.index_;
    }
    bool operator!=(const const_iterator& o) const { return !(*this == o); }
    // The chunk this iterator is in (nullptr at the end): prefetching walks
    // load the next chunk's pointers early.
    const Chunk* chunk() const { return chunk_; }

   private:
    friend class NodeList;
    const_iterator(const NodeList* list, const Chunk* chunk, uint32_t index)
        : list_(list), chunk_(chunk), index_(index) {}
    const NodeList* list_ = nullptr;
    const Chunk* chunk_ = nullptr;
    uint32_t index_ = 0;
  };
  using iterator = const_iterator;
  using const_reverse_iterator = std::reverse_iterator<const_iterator>;
  using value_type = std::unique_ptr<Node>;
  using size_type = size_t;

  NodeList() = default;
  ~NodeList();  // destroys the nodes, last to first
  NodeList(const NodeList&) = delete;
  NodeList& operator=(const NodeList&) = delete;

  const_iterator begin() const { return {this, head_, 0}; }
  const_iterator end() const { return {this, nullptr, 0}; }
  const_reverse_iterator rbegin() const { return const_reverse_iterator(end()); }
  const_reverse_iterator rend() const { return const_reverse_iterator(begin()); }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const std::unique_ptr<Node>& front() const { return head_->entries[0]; }
  const std::unique_ptr<Node>& back() const { return tail_->entries[tail_->count - 1]; }

  // ---- edits (Graph and UndoLog) ----
  // Inserts `n` before `before` (a node of this list), or at the end. Takes
  // `n` only once nothing can fail: after a throw the caller still owns it.
  void insert(std::unique_ptr<Node>&& n, Node* before);
  // Removes `n` (a node of this list) and hands it over.
  std::unique_ptr<Node> take(Node* n);
  // The node after `n`, or nullptr.
  Node* next(const Node* n) const;
  // Moves `n` before `before` (nullptr: to the end).
  void move(Node* n, Node* before);
  // Replaces the order by `order`, which holds exactly the nodes of this list.
  void reorder(const std::vector<Node*>& order);

  // ---- order queries (the verifier's check of what a step touched) ----
  // False for a node in no list (removed, or held by an undo log).
  static bool isPlaced(const Node* n);
  // numberChunks() ranks the chunks in order (O(N / 61)); then, until the
  // next edit, precedes(a, b) tells whether a comes before b, for two nodes
  // of this list: their chunks' ranks, or one scan of their shared chunk.
  // Ranks are written into the chunks: no two callers may number one list
  // at once.
  void numberChunks() const;
  static bool precedes(const Node* a, const Node* b);

 private:
  Chunk* newChunkAfter(Chunk* c);  // c == nullptr: at the front
  void unlink(Chunk* c);           // and free it (it must be empty)
  // Moves the upper half of a full chunk into a new chunk after it.
  void split(Chunk* c);
  // After a removal from c: frees it when empty, merges it when sparse.
  void rebalance(Chunk* c);
  static uint32_t indexIn(const Chunk* c, const Node* n);
  static void setChunk(Node* n, Chunk* c);
  static Chunk* chunkOf(const Node* n);

  Chunk* head_ = nullptr;
  Chunk* tail_ = nullptr;
  size_t size_ = 0;
};

}  // namespace passlab::ir
